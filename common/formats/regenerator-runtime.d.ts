/** The runtime is imported only for the global it installs (see loadFontkit in ./pdf.ts). */
declare module 'regenerator-runtime/runtime.js';
