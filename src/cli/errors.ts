export { isUserFacing, UserError } from '../errors.js';
