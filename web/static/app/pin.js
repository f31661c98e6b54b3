// The table PIN on this tablet: the dialog that asks for it (also when the companion refuses a change
// for want of it), changing it, and the button that says whether this tablet is unlocked. The PIN
// opens a session; the tablet keeps the session, never the PIN.
import { call, session } from "./api.js";
import { toast } from "./toast.js";

const $ = (id) => document.getElementById(id);

// Resolves true once the companion accepts the PIN typed in, false when cancelled or refused.
export function askPin(message) {
  return new Promise((resolve) => {
    const dlg = $("dlg-pin");
    $("pin-error").textContent = session.get() ? (message || "") : "";
    $("pin-input").value = "";
    dlg.onclose = async () => {
      if (dlg.returnValue !== "ok") return resolve(false);
      const ok = await fetch("/api/pin", { method: "POST", headers: { "X-Table-Pin": $("pin-input").value } });
      $("pin-input").value = "";
      updatePinButton(ok.ok);
      if (ok.ok) session.set((await ok.json()).session);
      else {
        session.forget();
        // too many wrong PINs from this tablet: say how to get back in, not "wrong PIN" again
        if (ok.status === 429) toast(_("Too many wrong PINs from this tablet: wait a while, or hold the reread button at the table to unlock."));
        else toast(_("That PIN is not this table's PIN."));
      }
      resolve(ok.ok);
    };
    dlg.showModal();
  });
}

async function changePin() {
  let done;
  try {
    done = await call("/api/pin/change", { old: $("pin-old").value, new: $("pin-new").value }, { retry: false });
  } catch (e) { return; } // the companion's reason is already shown
  $("pin-old").value = $("pin-new").value = "";
  session.set(done.session);  // the old PIN's sessions, this tablet's too, have ended
  updatePinButton(true);
  $("dlg-pin").close("cancel");
  toast(_("The table PIN is changed; tell the other players."));
}

function updatePinButton(unlocked) {
  $("btn-pin").textContent = unlocked ? _("Unlocked") : _("Enter PIN");
}

// On load: "Enter PIN" until the companion confirms the session this tablet kept (it may have ended).
export function wirePin() {
  updatePinButton(false);
  window.localStorage.removeItem("pin");  // kept by an older page: the PIN itself is never kept now
  if (session.get()) {
    fetch("/api/pin", { method: "POST", headers: { "X-Table-Session": session.get() } })
      .then((r) => { updatePinButton(r.ok); if (!r.ok) session.forget(); });
  }
  $("btn-pin").onclick = () => askPin("");
  $("pin-change-ok").onclick = changePin;
}
