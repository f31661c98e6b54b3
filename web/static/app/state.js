// The latest view the companion sent. Views draw from the view they are given; a tap handled later
// (a dialog opened, a roll sent) reads the view as it is then.

let latest = null;

export function keepView(v) { latest = v; }

export function latestView() { return latest; }

export function latestGame() { return latest && latest.game; }
