// Preact's h with htm's tagged templates: components read like HTML, with no JSX build step.
export { html } from 'htm/preact';
