/** The app's entry: the style sheet, the theme, and the shell mounted on #app. */
import './styles.css';
import './theme';
import { render } from 'preact';
import { App } from './app';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
