// The page of tent-tools studio: mounted on #app, one Studio (store.ts) for
// the page's one session with the language server.

import { render } from 'preact';
import { App } from './app';
import { startLayout } from './diagram';
import { Studio } from './store';
import './style.css';

const studio = new Studio();
render(<App studio={studio} />, document.getElementById('app')!);
studio.start();
// the worker loads and compiles dagre while the model is on its way
startLayout();
