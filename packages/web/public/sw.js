// The app's service worker: shows the alerts the server pushes (Web Push) and opens the asset page
// of one when it is clicked. It caches nothing: the app always reads the server.
//
// A push carries the server's payload (`PushPayload`: key, category, title, body, time, data);
// `data.asset_id` names the asset of an alert. `key` is the trigger's idempotency key: used as the
// notification's tag, a repeat of the same trigger replaces the one shown instead of adding one.
self.addEventListener('push', (event) => {
  let payload = {};
  try {
    payload = event.data ? event.data.json() : {};
  } catch {
    payload = { title: 'marketlens', body: event.data ? event.data.text() : '' };
  }
  const title = typeof payload.title === 'string' ? payload.title : 'marketlens alert';
  const body = typeof payload.body === 'string' ? payload.body : '';
  const facts = typeof payload.data === 'object' && payload.data !== null ? payload.data : {};
  const asset = typeof facts.asset_id === 'string' ? facts.asset_id : null;
  const options = { body, data: { asset } };
  if (typeof payload.key === 'string') options.tag = payload.key;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const asset = event.notification.data?.asset;
  event.waitUntil(self.clients.openWindow(asset ? `/app/asset/${encodeURIComponent(asset)}` : '/app/'));
});
