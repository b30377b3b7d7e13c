// Runs before the first paint (a plain, blocking script: the CSP allows only 'self'), so a chosen
// theme never flashes the other one. renderer/src/app/theme.ts keeps this copy of the choice.
try {
  var t = localStorage.getItem('s2t.theme');
  if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
} catch (e) {}
