// Heckmeck board: the grill, the roll and the kept dice; the score strip shows each player's worms.
"use strict";
(window.GameViews || (window.GameViews = {})).heckmeck = {
  title: "Heckmeck",
  options: [
    { key: "short_variant", type: "bool", label: _("Short game"), hint: _("(a returned tile always goes face down; suggested for 5-7 players)") },
  ],
  colours: ["red", "blue", "green", "yellow", "purple", "orange", "black", "white"],
  scoreName: _("Worms"),
  roundName: _("Round"),
  scores(sb) {
    return sb.players.map((p, i) => ({
      values: [{ text: String(p.worms), unit: ngettext("worm", "worms", p.worms), testid: `worms-${i}` }],
      detail: p.top !== null
        ? ngettext("{n} tile, {top} on top", "{n} tiles, {top} on top", p.stack.length, { top: p.top })
        : _("no tiles yet"),
    }));
  },
  // most worms wins; a tie goes to the highest tile held
  rank(sb) {
    const best = (p) => (p.stack.length ? Math.max(...p.stack) : 0);
    return sb.players.map((p, seat) => ({ seat, p }))
      .sort((a, b) => b.p.worms - a.p.worms || best(b.p) - best(a.p))
      .map(({ seat, p }, i, all) => {
        const tied = all.some((o) => o.seat !== seat && o.p.worms === p.worms);
        return {
          seat,
          key: `${p.worms}:${best(p)}`,
          main: ngettext("{n} worm", "{n} worms", p.worms),
          tiebreak: tied ? _("tie on worms: highest tile {tile}", { tile: best(p) || "—" }) : "",
        };
      });
  },
  risky(o) { return o.action.type === "stop"; },
  note(sb, g) {
    if (sb.phase === "decide" && !g.awaiting.options.some((o) => o.action.type === "claim")) {
      return sb.has_worm ? _("No tile can be taken with this total yet: roll again or stop.")
        : _("No tile can be taken without a worm kept: roll again or stop.");
    }
    return "";
  },
  render(sb, el) {
    const h = window.h;
    const worms = (n) => {
      const span = h("span", "worms");
      span.setAttribute("role", "img");
      span.setAttribute("aria-label", ngettext("{n} worm", "{n} worms", n));
      for (let i = 0; i < n; i++) span.append(window.wormIcon());
      return span;
    };
    const die = (f) => {
      const d = h("span", "die" + (f === "worm" ? " worm" : ""), f === "worm" ? undefined : String(f));
      if (f === "worm") d.append(window.wormIcon());
      return d;
    };
    const tops = new Map(sb.players.map((p) => [p.top, p.name]));

    const grill = h("div", "grill");
    grill.dataset.testid = "grill";
    for (let t = 21; t <= 36; t++) {
      const onGrill = sb.grill.find((g) => g.tile === t);
      const down = sb.face_down.includes(t);
      const tile = h("div", "tile" + (onGrill ? "" : down ? " face-down" : " taken"));
      tile.dataset.tile = t;
      if (onGrill || !down) tile.append(h("b", "", String(t)), worms(Math.floor((t - 17) / 4)));
      if (!onGrill && !down && tops.has(t)) tile.append(h("span", "tile-owner", tops.get(t)));
      else if (down) tile.append(h("span", "tile-owner", _("face down")));
      grill.append(tile);
    }

    const dice = h("div", "dice-area");
    const roll = h("div", "roll");
    roll.append(h("span", "label", _("Roll")), ...sb.roll.map(die));
    if (!sb.roll.length) roll.append(h("span", "muted", "—"));
    const kept = h("div", "kept");
    kept.dataset.testid = "kept";
    kept.append(h("span", "label", _("Kept")), ...sb.kept.map(die));
    const sum = h("span", "sum" + (sb.has_worm ? "" : " no-worm"), `= ${sb.kept_total}`);
    sum.dataset.testid = "kept-total";
    kept.append(sum);
    const wormNote = h("span", "worm-note" + (sb.has_worm ? " yes" : ""),
      sb.has_worm ? _("✓ a worm is kept") : _("✗ no worm kept yet: no tile can be taken"));
    wormNote.dataset.testid = "worm-kept";
    dice.append(roll, kept);
    if (sb.kept.length) dice.append(wormNote);

    el.replaceChildren(grill, dice);
  },
};
