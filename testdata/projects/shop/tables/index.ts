// The tables that most of the code needs, in one place.
export { users } from './users'
export { orders } from './orders'
export { products as catalogue } from './products'
