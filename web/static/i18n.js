// The page's words in the page's language. The catalogue and its plural rule come from the server
// (/api/i18n.js, generated from the same gettext catalogues the engines' messages use, loaded just
// before this file); numbers are written the locale's way. Ids are the English texts, so a word missing
// from a catalogue still reads, in English.
"use strict";
(function () {
  const bundle = window.I18N || { lang: "en", locale: "en", languages: { en: "English" }, messages: {}, plural: (n) => Number(n !== 1) };
  const numbers = new Intl.NumberFormat(bundle.locale === "qps" ? "en" : bundle.locale);
  // every number the page writes (money, averages, p-values) in the page's language: "590.000" in
  // Italian and German, never "$590,000" beside it
  const fixed = {};
  window.formatNumber = (x, digits = 0) => (fixed[digits] || (fixed[digits] = new Intl.NumberFormat(
    bundle.locale === "qps" ? "en" : bundle.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }))).format(x);
  // money one way everywhere the page writes it: "$60,000", "$60.000" (it, de), "$60 000" (ru), like the
  // server's ${amount} message
  window.formatMoney = (x) => `${x < 0 ? "−" : ""}$${window.formatNumber(Math.abs(x))}`;
  const show = (value) => (typeof value === "number" && Number.isInteger(value) ? numbers.format(value) : String(value));
  const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (m, key) => (values && key in values ? show(values[key]) : m));
  window._ = (text, values) => {
    const found = bundle.messages[text];
    return fill(typeof found === "string" ? found : Array.isArray(found) ? found[0] : text, values);
  };
  window.ngettext = (one, many, n, values) => {
    const forms = bundle.messages[one];
    const text = Array.isArray(forms) && forms.length ? forms[Math.min(bundle.plural(n), forms.length - 1)] || many : n === 1 ? one : many;
    return fill(text, { n, ...(values || {}) });
  };

  // The language switch: remembered on this device (localStorage and a cookie the server reads for the
  // page, the API and the event stream). Different tablets at one table can each keep their own.
  const COOKIE = "lang";
  const remember = (lang) => {
    try { window.localStorage.setItem(COOKIE, lang); } catch (e) { /* private mode: the cookie still works */ }
    document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; SameSite=Lax`;
  };
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (asked && asked === bundle.lang) remember(asked); // ?lang= works like the switch: API and stream follow
  let stored = null;
  try { stored = window.localStorage.getItem(COOKIE); } catch (e) { stored = null; }
  const cookie = (document.cookie.match(/(?:^|;\s*)lang=([^;]*)/) || [])[1];
  if (stored && stored !== bundle.lang && !cookie && stored in bundle.languages) {
    remember(stored); // the cookie was cleared but the device remembers: serve the page again in its language
    window.location.reload();
  }
  window.I18N_LANG = bundle.lang;
  document.addEventListener("DOMContentLoaded", () => {
    document.documentElement.lang = bundle.lang === "qps" ? "en" : bundle.lang;
    for (const select of document.querySelectorAll("select[data-language-switch]")) {
      select.replaceChildren(...Object.entries(bundle.languages).map(([code, name]) => {
        const option = document.createElement("option");
        option.value = code;
        option.textContent = name;
        option.lang = code;
        option.selected = code === bundle.lang;
        return option;
      }));
      select.addEventListener("change", () => {
        remember(select.value);
        // a ?lang= in the address would pin the old language again on reloading: it goes
        const url = new URL(window.location.href);
        url.searchParams.delete("lang");
        window.location.replace(url.toString());
      });
    }
  });
})();
