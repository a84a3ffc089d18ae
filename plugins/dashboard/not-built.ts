// The page /dashboard/ answers when the app was not built: an install without dev dependencies
// (`npm ci --omit=dev`) has no Vite, so `npm run build` compiles the gateway and skips the app.
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sluice dashboard not built</title></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;line-height:1.5">
<h1>The dashboard was not built</h1>
<p>This gateway was installed without the dashboard's build tools (dev dependencies). Run
<code>npm ci</code> then <code>npm run build</code> in the gateway's folder, and restart it.</p>
<p>The admin API (<code>/admin/audit</code>, <code>/admin/usage</code>, <code>/admin/keys</code>) works without it.</p>
</body></html>
`;
