/**
 * The deno example at start (a bad variable, its port taken) and at a stop signal sent to its npm script.
 */
import { defineStartAndStopTests } from '../../../test/support/start-and-stop.js';

defineStartAndStopTests('deno');
