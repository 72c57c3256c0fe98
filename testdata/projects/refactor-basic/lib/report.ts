// Reports over orders, used by screens.
import * as t from '../tables'

export function tableName(): string {
  return 'orders'
}

export const everything = [t.orders, t.people]
