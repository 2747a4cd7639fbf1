// Progressive enhancement of the console's server-rendered pages; every page works without it.
'use strict';

/** Run input: checked as it is typed, so a malformed object is caught before it reaches the service. */
function checkJsonObject(textarea) {
  const error = document.getElementById(`${textarea.id}-error`);
  const text = textarea.value.trim();
  let problem = '';
  if (text !== '') {
    try {
      const value = JSON.parse(text);
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        problem = 'The input must be a JSON object ({…}).';
    } catch (e) {
      problem = `Not valid JSON yet: ${e instanceof Error ? e.message.replace(/^JSON\.parse: /, '') : 'cannot be read'}.`;
    }
  }
  textarea.setCustomValidity(problem);
  textarea.setAttribute('aria-invalid', problem ? 'true' : 'false');
  if (error) {
    const empty = !problem && text !== '' && Object.keys(JSON.parse(text)).length === 0;
    error.textContent =
      problem || (empty ? 'An empty object: it gives the run no values.' : text ? 'Reads as a JSON object.' : '');
    error.classList.toggle('ok', !problem && text !== '');
  }
}

for (const textarea of document.querySelectorAll('textarea[data-json-object]')) {
  textarea.addEventListener('input', () => checkJsonObject(textarea));
}

// A running batch's page refreshes itself, unless the operator is typing in it.
const refresh = document.querySelector('[data-refresh]');
if (refresh) {
  const seconds = Number(refresh.getAttribute('data-refresh')) || 5;
  setTimeout(function reload() {
    if (document.activeElement && ['INPUT', 'TEXTAREA'].includes(document.activeElement.tagName)) {
      setTimeout(reload, seconds * 1000);
    } else {
      location.reload();
    }
  }, seconds * 1000);
}
