// Words on the page go through these two functions so the table's language can be chosen. For now
// they give the English text back with its {placeholders} filled in; the catalogues come later.
"use strict";
(function () {
  const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (m, key) => (values && key in values ? String(values[key]) : m));
  window._ = (text, values) => fill(text, values);
  window.ngettext = (one, many, n, values) => fill(n === 1 ? one : many, { n, ...(values || {}) });
})();
