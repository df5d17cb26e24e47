// When an event the reader may see lands, reload the page's changing part (same origin only).
(function () {
  var part = document.body.dataset.live;
  if (!part || !window.EventSource) { return; }
  var first = true;
  new EventSource("/events").addEventListener("seen", function () {
    if (first) { first = false; return; }
    fetch(location.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live-part");
      var shown = document.getElementById("live-part");
      if (fresh && shown) { shown.replaceWith(fresh); }
    });
  });
})();
