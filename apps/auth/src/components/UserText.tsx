// Text someone else chose (a code's issuer, account, tag or note; a file or album name), shown so that it
// cannot lie about itself: every character that draws nothing appears as a marker such as ⟨U+202E⟩
// (visible-text.ts), and the whole is isolated from the text around it (`<bdi>`: its own direction,
// so a right-to-left name cannot reorder what follows).
import { visibleText } from '../services/visible-text.ts';

export function UserText({ text }: { text: string }) {
  return <bdi>{visibleText(text)}</bdi>;
}
