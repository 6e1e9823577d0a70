// Many Linux notification servers ignore `silent`, so there the app plays the theme's sound itself (canberra-gtk-play
// or paplay); with neither, the desktop decides and Settings says so. Pure.
import type { DesktopNote } from '../../shared/desktop'

/** The freedesktop sound theme's file for a new message, as Debian, Fedora and Arch install it. */
export const MESSAGE_SOUND_FILE = '/usr/share/sounds/freedesktop/stereo/message.oga'

export interface SoundTools {
  canberraGtkPlay: boolean
  paplay: boolean
  messageSoundFile: boolean
}

export interface SoundPlan {
  /** The notification's own `silent` option. */
  silent: boolean
  /** What to run for the sound, if the app plays it. */
  play: { command: string; args: string[] } | null
}

export const SOUND_BY_DESKTOP_NOTE: DesktopNote = {
  id: 'sound-by-desktop',
  title: 'Notification sounds are up to your desktop',
  text: 'Neither canberra-gtk-play nor paplay is installed, so the notification server decides whether a sound plays; many ignore the Sound setting. Install libcanberra-gtk3-module (canberra-gtk-play) or pulseaudio-utils (paplay) for Agent Tray to play it.'
}

export function soundPlan(platform: string, wantSound: boolean, tools: SoundTools): SoundPlan {
  if (platform !== 'linux') return { silent: !wantSound, play: null }
  if (tools.canberraGtkPlay) {
    return {
      silent: true,
      play: wantSound
        ? { command: 'canberra-gtk-play', args: ['--id=message-new-instant', '--description=Agent Tray'] }
        : null
    }
  }
  if (tools.paplay && tools.messageSoundFile)
    return { silent: true, play: wantSound ? { command: 'paplay', args: [MESSAGE_SOUND_FILE] } : null }
  return { silent: !wantSound, play: null }
}

/** Whether Settings should say that the desktop decides. */
export function soundNote(platform: string, tools: SoundTools): DesktopNote | null {
  return platform === 'linux' && soundPlan(platform, true, tools).play === null ? SOUND_BY_DESKTOP_NOTE : null
}
