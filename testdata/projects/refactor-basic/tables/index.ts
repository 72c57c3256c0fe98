// The tables most code needs, in one place.
export { orders } from './orders'
export { products as goods } from './catalog'
export { people } from './people'
