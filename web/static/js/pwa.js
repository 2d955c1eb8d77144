// Registers the service worker (/sw.js) so that the companion installs as an app and opens
// its pages at once. Loaded as a file of its own: the site's CSP allows no inline script.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // No service worker (e.g. a private window): the site still works, just not offline.
    });
  });
}
