// 'tent/ui/jsx-runtime': the automatic JSX runtime over h() of 'tent/ui'.
import { h, Fragment } from 'tent/ui'

export { Fragment }

export function jsx(type, props, key) {
  const { children, ...rest } = props || {}
  if (children === undefined) return h(type, rest)
  return Array.isArray(children) ? h(type, rest, ...children) : h(type, rest, children)
}

export const jsxs = jsx
export const jsxDEV = jsx
