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

// On a phone a table reads as a list of cards (console.css): each cell is headed by its column's name, and the table
// keeps its roles, which a browser may drop once a table is displayed as blocks.
for (const table of document.querySelectorAll('main table')) {
  const heads = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent.replace(/\s+/g, ' ').trim());
  table.setAttribute('role', 'table');
  for (const row of table.querySelectorAll('tr')) {
    row.setAttribute('role', 'row');
    Array.from(row.cells).forEach((cell, i) => {
      if (cell.tagName === 'TH') {
        cell.setAttribute('role', cell.closest('thead') ? 'columnheader' : 'rowheader');
        return;
      }
      cell.setAttribute('role', 'cell');
      if (heads[i] && !cell.hasAttribute('data-label')) cell.setAttribute('data-label', heads[i]);
    });
  }
  for (const group of table.querySelectorAll('thead, tbody, tfoot')) group.setAttribute('role', 'rowgroup');
}
