// The one small DOM helper every game view uses: an element with a class and optional text.
"use strict";
window.h = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
