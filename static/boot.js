// Runs before first paint. Pages are prerendered in English; for a learner who reads another
// language this hides the page until the app has switched it (the app removes the attribute;
// the timer is a safety net if the app fails to start). It also applies the chosen theme so a
// dark-theme choice never flashes light. Both choices are mirrored from IndexedDB to localStorage.
// An embedded lesson (/embed/…) takes them from its link first: ?lang=ru&theme=dark (docs/embed.md).
(function () {
  var root = document.documentElement;
  var saved = {};
  try {
    saved.theme = localStorage.getItem('nodeplane.theme');
    saved.locale = localStorage.getItem('nodeplane.locale');
  } catch {
    // Storage can be blocked (private mode, policy); the system theme and language apply then.
  }
  if (/\/embed\//.test(location.pathname)) {
    var query = new URLSearchParams(location.search);
    var theme = query.get('theme');
    var lang = query.get('lang');
    if (theme === 'light' || theme === 'dark' || theme === 'system') saved.theme = theme;
    if (lang === 'en' || lang === 'ru') saved.locale = lang;
  }
  if (saved.theme === 'light' || saved.theme === 'dark') root.setAttribute('data-theme', saved.theme);

  var locale = saved.locale;
  if (!locale) {
    var languages = navigator.languages || [navigator.language || 'en'];
    for (var i = 0; i < languages.length && !locale; i++) {
      var base = String(languages[i]).toLowerCase().split('-')[0];
      if (base === 'en' || base === 'ru') locale = base;
    }
  }
  if (locale && locale !== 'en') {
    root.setAttribute('data-locale-pending', '');
    setTimeout(function () {
      root.removeAttribute('data-locale-pending');
    }, 3000);
  }
})();
