// Heckmeck board: the grill, each player's stack, the roll and the kept dice.
"use strict";
(window.GameViews || (window.GameViews = {})).heckmeck = {
  title: "Heckmeck",
  options: [
    { key: "short_variant", type: "bool", label: "Short game", hint: "(a returned tile always goes face down; suggested for 5-7 players)" },
  ],
  render(sb, el, game) {
    const h = window.h;
    const worms = (n) => {
      const span = h("span", "worms");
      span.title = `${n} worm${n > 1 ? "s" : ""}`;
      for (let i = 0; i < n; i++) span.append(window.wormIcon());
      return span;
    };
    const die = (f) => {
      const d = h("span", "die" + (f === "worm" ? " worm" : ""), f === "worm" ? undefined : String(f));
      if (f === "worm") d.append(window.wormIcon());
      return d;
    };
    const tops = new Set(sb.players.map((p) => p.top).filter((t) => t !== null));

    const grill = h("div", "grill");
    grill.dataset.testid = "grill";
    for (let t = 21; t <= 36; t++) {
      const onGrill = sb.grill.find((g) => g.tile === t);
      const down = sb.face_down.includes(t);
      const tile = h("div", "tile" + (onGrill ? "" : down ? " face-down" : " taken"));
      tile.dataset.tile = t;
      if (onGrill || !down) {
        tile.append(h("b", "", String(t)), worms(Math.floor((t - 17) / 4)));
      }
      if (!onGrill && !down) tile.title = tops.has(t) ? "on top of a stack" : "in a stack";
      grill.append(tile);
    }

    const players = h("div", "players");
    sb.players.forEach((p, i) => {
      const card = h("div", "player" + (i === sb.current && sb.phase !== "over" ? " current" : ""));
      card.dataset.testid = `player-${i}`;
      card.append(h("div", "name", p.name));
      const top = h("div", "top-tile");
      if (p.top !== null) top.append(h("b", "", String(p.top)), worms(Math.floor((p.top - 17) / 4)));
      else top.textContent = "—";
      card.append(top);
      const score = h("div", "score", `${p.worms} worms · ${p.stack.length} tiles`);
      score.dataset.testid = `worms-${i}`;
      card.append(score);
      players.append(card);
    });

    const dice = h("div", "dice-area");
    const roll = h("div", "roll");
    roll.append(h("span", "label", "Roll"), ...sb.roll.map(die));
    if (!sb.roll.length) roll.append(h("span", "muted", "—"));
    const kept = h("div", "kept");
    kept.dataset.testid = "kept";
    kept.append(h("span", "label", "Kept"), ...sb.kept.map(die));
    const sum = h("span", "sum" + (sb.has_worm ? "" : " no-worm"), `= ${sb.kept_total}`);
    sum.dataset.testid = "kept-total";
    sum.title = sb.has_worm ? "" : "no worm kept yet: no tile can be taken";
    kept.append(sum);
    dice.append(roll, kept);

    el.replaceChildren(grill, dice, players);
  },
};
