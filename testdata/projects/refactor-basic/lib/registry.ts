// Everything the admin pages list, by kind.
import { placeOrder } from '../functions/placeOrder'
import { chargeCard as charge } from '../functions/chargeCard'
import { checkout } from '../flows/checkout'
import { ordersScreen } from '../screens/ordersScreen'

export const registry = { placeOrder, charge, checkout, screens: [ordersScreen] }
