// The app's service worker: shows the alerts the server pushes (Web Push) and opens the asset page
// of one when it is clicked. It caches nothing: the app always reads the server.
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'marketlens', body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' ? data.title : 'marketlens alert';
  const body = typeof data.body === 'string' ? data.body : '';
  const asset = typeof data.asset_id === 'string' ? data.asset_id : null;
  event.waitUntil(self.registration.showNotification(title, { body, data: { asset } }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const asset = event.notification.data?.asset;
  event.waitUntil(self.clients.openWindow(asset ? `/app/asset/${encodeURIComponent(asset)}` : '/app/'));
});
