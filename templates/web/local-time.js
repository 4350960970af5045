// Adds the reader's own time beside a deadline. The pages read the same
// without it: the deadline is shown in the game's time zone and in UTC,
// and the form beside it shows any time zone without a script.
document.querySelectorAll("[data-time]").forEach(function (el) {
  var t = new Date(el.getAttribute("data-time"));
  if (!isNaN(t)) {
    el.textContent = t.toLocaleString(undefined, {
      weekday: "short", day: "2-digit", month: "short", year: "numeric",
      hour: "2-digit", minute: "2-digit", timeZoneName: "short"
    }) + " (your time)";
  }
});
