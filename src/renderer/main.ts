import './app.css'
import './patterns.css'
import { mount } from 'svelte'
import App from './App.svelte'
import { reportWindowErrors } from './lib/error-report'
import { isMac } from './lib/platform'

reportWindowErrors()
// The base type size follows the desktop: 13 px on macOS, 14 px elsewhere (app.css).
if (isMac(navigator.userAgent)) document.documentElement.dataset.platform = 'mac'

const target = document.getElementById('app')
if (!target) throw new Error('The page has no #app element.')
mount(App, { target })
