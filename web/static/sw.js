// The companion's service worker: keeps the app shell (pages' styles, scripts, icons) so the
// site opens at once and installs as an app. Served from /sw.js so that its scope is the
// whole site.
//
// The table itself is live data: API calls and the event stream always go to the network
// and are never cached (a stale stack would be worse than an error). Pages are fetched from
// the network first; only when the box cannot be reached is the last copy shown.
// A changed worker adds every file of the list again on install; bump CACHE when files leave
// the list: the old cache, with them, is dropped on activation.

const CACHE = "sabacc-shell-v1";
const SHELL = [
  "/",
  "/host",
  "/calculator",
  "/rules",
  "/manifest.webmanifest",
  "/static/css/app.css",
  "/static/css/host.css",
  "/static/css/play.css",
  "/static/js/api.js",
  "/static/js/cardpicker.js",
  "/static/js/calculator.js",
  "/static/js/settlement.js",
  "/static/js/showdown.js",
  "/static/js/live.js",
  "/static/js/moves.js",
  "/static/js/player.js",
  "/static/js/display.js",
  "/static/js/host.js",
  "/static/js/audit.js",
  "/static/js/verify.js",
  "/static/js/sha256.js",
  "/static/js/pwa.js",
  "/static/icons/icon-192.png",
  "/static/icons/icon-512.png",
  "/static/icons/icon.svg",
  "/static/media/keepawake.webm",
];

self.addEventListener("install", (event) => {
  // One missing file must not stop the rest from being kept: add them one by one.
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(SHELL.map((url) => cache.add(url).catch(() => undefined)))
    ).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/sw.js") return; // always live
  if (url.pathname.startsWith("/static/")) {
    // Static files: the network when it answers (a new version of the companion), else the cache.
    event.respondWith(networkFirst(request, true));
    return;
  }
  if (request.mode === "navigate") {
    // Every page is kept as it was last seen: a phone whose Wi-Fi drops can still reload its
    // seat page (which then says it is reconnecting) instead of a browser error.
    event.respondWith(networkFirst(request, true));
  }
});

async function networkFirst(request, keep) {
  try {
    const response = await fetch(request);
    // 200 only: a video is fetched in ranges (206), which a cache cannot keep.
    if (keep && response.status === 200) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (err) {
    const cached = await caches.match(request);
    if (cached) return cached;
    return new Response(
      "<!doctype html><title>Offline</title><p>The table companion cannot be reached. " +
      "Is this phone on the table's Wi-Fi, and is the box on?</p>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
    );
  }
}
