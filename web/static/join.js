// The invite link carries its code after '#', which browsers never send: post it once, from here.
(function () {
  var code = location.hash.slice(1);
  if (!code) { return; }
  history.replaceState(null, "", "/join");
  document.getElementById("token").value = decodeURIComponent(code);
  document.getElementById("join").submit();
})();
