import { fn, text } from 'tent'
import { Page, Text, Badge } from 'tent/ui'

function Greeting(props: { name: string }) {
  return <Text>Hello, {props.name}</Text>
}

// Builds a view with JSX, as a screen's view would, and answers the tree.
export const render = fn({
  input: { name: text() },
  run: (ctx, input) => (
    <Page title="Hi">
      <Greeting name={input.name} />
      <>
        <Badge tone="info">new</Badge>
      </>
      {false}
    </Page>
  ),
})
