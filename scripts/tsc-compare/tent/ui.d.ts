// The 'tent/ui' module for tsc --noEmit (scripts/tsc-compare.sh): screen()
// and the components, with JSX elements of any kind.
import type { Ctx } from './index'

export interface ScreenDefinition {
  path: string
  title?: string
  load?: (ctx: Ctx, params: Record<string, string>) => unknown
  view: (data: any) => unknown
}

export declare function screen(definition: ScreenDefinition): ScreenDefinition

type Component = (props: any) => any

export declare const Page: Component
export declare const Section: Component
export declare const Heading: Component
export declare const Text: Component
export declare const Table: Component
export declare const List: Component
export declare const Form: Component
export declare const Field: Component
export declare const Button: Component
export declare const Link: Component
export declare const Badge: Component
export declare const Stat: Component
export declare const Image: Component

declare global {
  namespace JSX {
    type Element = any
    interface IntrinsicElements {
      [name: string]: any
    }
  }
}
