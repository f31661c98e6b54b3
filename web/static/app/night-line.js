// At the end of a game: a line per player ("Benno: 3 wins tonight; rating 1532, +18") and the play for
// BG Stats, as a QR code to scan with a phone and a link to tap on a tablet that has the app.
const $ = (id) => document.getElementById(id);

const signed = (n) => (n > 0 ? `+${n}` : String(n));

export async function renderNightLine(gameId) {
  const lines = $("end-night");
  lines.replaceChildren();  // the dialog is reused: the last game's lines must not show for this one
  $("end-bgstats").hidden = true;
  const res = await fetch(`/api/games/${gameId}/result`);
  if (!res.ok) return;
  const result = await res.json();
  const ordered = [...result.seats].sort((a, b) => a.place - b.place);
  lines.replaceChildren(...ordered.filter((s) => s.rating !== null).map((s) => {
    const li = document.createElement("li");
    li.textContent = s.place === 1
      ? ngettext("{name}: {n} win tonight; rating {rating}, {delta}", "{name}: {n} wins tonight; rating {rating}, {delta}",
        s.wins_tonight, { name: s.name, rating: String(s.rating), delta: signed(s.delta) })
      : _("{name}: rating {rating}, {delta}", { name: s.name, rating: String(s.rating), delta: signed(s.delta) });
    return li;
  }));
  $("end-qr").src = `/api/games/${gameId}/bgstats.svg`;
  $("end-bgstats-link").href = result.bgstats;
  $("end-bgstats").hidden = false;
}
