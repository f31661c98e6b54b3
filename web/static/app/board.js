// The board: drawn by the game's own view (web/static/games/), or its raw data for a game without one.

const GameViews = window.GameViews || (window.GameViews = {});

export function renderBoard(g) {
  const board = document.getElementById("board");
  if (!g) { board.replaceChildren(); return; }
  const gv = GameViews[g.name];
  if (gv && gv.render) gv.render(g.scoreboard, board, g);
  else board.textContent = JSON.stringify(g.scoreboard);
}
