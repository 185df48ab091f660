import { createHash } from 'node:crypto';

/**
 * `GET /join?invite_code=…&email=…`: the page the invitation mail links to. A form (name, password)
 * that calls `POST /api/v1/auth/register` with the invitation code, the same call the API flow and the
 * CLI make. The page itself contains nothing from the request: its script reads the code and the
 * address from the URL and only ever writes them as text, so the query cannot inject markup. The
 * Content-Security-Policy allows exactly this script (by hash) and requests to this origin.
 */
const SCRIPT = `
const q = new URLSearchParams(location.search);
const form = document.getElementById('join');
const out = document.getElementById('out');
form.email.value = q.get('email') || '';
form.email.readOnly = Boolean(q.get('email'));
form.invite_code.value = q.get('invite_code') || '';
history.replaceState(null, '', location.pathname);
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  out.textContent = 'Creating your account…';
  const body = {
    email: form.email.value,
    full_name: form.full_name.value,
    password: form.password.value,
    invite_code: form.invite_code.value,
  };
  try {
    const res = await fetch('/api/v1/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (res.ok) {
      form.hidden = true;
      out.textContent = 'Welcome! Your account is ready: log in with ' + body.email + ' and your new password.';
    } else if (Array.isArray(data.detail)) {
      out.textContent = data.detail.map((d) => String((d.loc || []).slice(-1)[0]) + ': ' + d.msg).join('; ');
    } else {
      out.textContent = data.detail || 'The invitation could not be accepted (' + res.status + ').';
    }
  } catch {
    out.textContent = 'The server could not be reached; try again.';
  }
});
`;

const scriptHash = createHash('sha256').update(SCRIPT).digest('base64');

export const JOIN_PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': `default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
};

export const JOIN_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Accept your invitation</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
label { display: block; margin-top: 1rem; }
input { width: 100%; padding: .4rem; box-sizing: border-box; }
button { margin-top: 1.5rem; padding: .5rem 1.2rem; }
#out { margin-top: 1rem; }
</style>
</head>
<body>
<h1>Accept your invitation</h1>
<p>Choose your name and a password to create your account.</p>
<form id="join">
<label>Email <input name="email" type="email" required></label>
<label>Full name <input name="full_name" required maxlength="100" autocomplete="name"></label>
<label>Password <input name="password" type="password" required minlength="8" maxlength="128" autocomplete="new-password"></label>
<input name="invite_code" type="hidden">
<button type="submit">Create account</button>
</form>
<p id="out" role="status"></p>
<script>${SCRIPT}</script>
</body>
</html>
`;
