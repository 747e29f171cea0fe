/** Builds the dashboard (index.html, dashboard.js, dashboard.css) into `outDir`. */
export function buildDashboard(outDir: string): Promise<void>;
