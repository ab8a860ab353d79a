import { render } from 'solid-js/web';
import { App, createServices } from './app';
import { loadConfig } from './config';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const config = await loadConfig();
render(() => <App services={createServices(config)} />, root);
