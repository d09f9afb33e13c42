// Next's global declarations (for example the side-effect `*.css` imports of create-app.tsx), which an
// app gets from its next-env.d.ts but this package would not see otherwise.
/// <reference types="next" />
