/** The page footer (docs/overview.md, The shell): the copyright line. A `<footer>` outside `<main>` (contentinfo). */
export function AppFooter() {
  return <footer className="app-footer">© {new Date().getFullYear()} Admin Panel</footer>;
}
