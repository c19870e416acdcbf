// Runs before first paint: apply the theme the learner chose (mirrored from IndexedDB into
// localStorage by the app), so a dark-theme choice never flashes light.
try {
  var theme = localStorage.getItem('nodeplane.theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
} catch {
  // Storage can be blocked (private mode, policy); the system theme applies then.
}
