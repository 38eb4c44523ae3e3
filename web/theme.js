/**
 * Light or dark: the system's preference (prefers-color-scheme, through CSS) until the user
 * picks one with the toggle; the pick is kept in localStorage.
 */
const KEY = "agentwire-theme";
const dark = window.matchMedia("(prefers-color-scheme: dark)");

function apply(theme) {
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function current() {
  return document.documentElement.dataset.theme ?? (dark.matches ? "dark" : "light");
}

export function setUpTheme(button) {
  apply(localStorage.getItem(KEY));
  const label = () => button.setAttribute("aria-label", current() === "dark" ? "Switch to the light theme" : "Switch to the dark theme");
  label();
  dark.addEventListener("change", label);
  button.addEventListener("click", () => {
    const next = current() === "dark" ? "light" : "dark";
    localStorage.setItem(KEY, next);
    apply(next);
    label();
  });
}
