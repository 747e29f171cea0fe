// Every view of the dashboard, in the order their routes are tried. A new view is a new file
// that calls registerView, imported here.
import './suites.js';
import './suite.js';
import './benchmark.js';
import './variability.js';
