// The layout worker: one layout per message, the answer posted back.
import { layout, type LayoutRequest } from './layout';

self.onmessage = (ev: MessageEvent<LayoutRequest>) => {
  (self as unknown as Worker).postMessage(layout(ev.data));
};
