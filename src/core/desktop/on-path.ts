// Whether a program is installed: an executable of that name in a PATH directory. Thin.
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { MESSAGE_SOUND_FILE, type SoundTools } from './sound'

export function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return true
    } catch {
      // not here
    }
  }
  return false
}

export function findSoundTools(env: Record<string, string | undefined>): SoundTools {
  return {
    canberraGtkPlay: onPath('canberra-gtk-play', env.PATH),
    paplay: onPath('paplay', env.PATH),
    messageSoundFile: existsSync(MESSAGE_SOUND_FILE)
  }
}
