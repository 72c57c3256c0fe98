// The 'tent/ui' module as app code sees it when the runner runs it:
// screen() tags its argument, and every component is a plain function that
// returns an element object { type, props, children }. JSX compiles to h()
// (and to jsx()/jsxs() of 'tent/ui/jsx-runtime'), so a view returns a tree
// of such objects that a renderer can turn into HTML.

export function screen(def) { return Object.assign({}, def, { __tent: 'screen' }) }

function flat(children, out) {
  for (const c of children) {
    if (Array.isArray(c)) flat(c, out)
    else if (c !== null && c !== undefined && c !== false && c !== true) out.push(c)
  }
  return out
}

export function Fragment(props) { return flat([props && props.children], []) }

export function h(type, props, ...children) {
  props = props || {}
  if (type === Fragment) {
    return flat(children.length ? children : [props.children], [])
  }
  if (typeof type === 'function' && !type.__tentComponent) {
    return type(Object.assign({}, props, { children: flat(children, []) }))
  }
  const rest = {}
  for (const k in props) if (k !== 'children') rest[k] = props[k]
  const kids = children.length ? children : props.children === undefined ? [] : [props.children]
  const name = typeof type === 'function' ? type.__tentComponent : type
  return { type: name, props: rest, children: flat(kids, []) }
}

function component(name) {
  const c = (props) => h(c, props)
  c.__tentComponent = name
  return c
}

export const Page = component('Page')
export const Section = component('Section')
export const Heading = component('Heading')
export const Text = component('Text')
export const Table = component('Table')
export const List = component('List')
export const Form = component('Form')
export const Field = component('Field')
export const Button = component('Button')
export const Link = component('Link')
export const Badge = component('Badge')
export const Stat = component('Stat')
export const Image = component('Image')
