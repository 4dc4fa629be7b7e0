import { render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './console.css';
import './views.css';
import { App } from './app';

render(<App />, document.getElementById('app')!);
