// Wide mode (the window dragged to 700 px or more): a list and its detail side by side.
import { MediaQuery } from 'svelte/reactivity'

export const WIDE_MIN_PX = 700
export const wideLayout = new MediaQuery(`min-width: ${WIDE_MIN_PX}px`)
