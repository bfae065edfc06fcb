import { defineCleanupSuite } from '../reliability/cleanup/suite.js';

// `npm run test:stress`: 10,000 abandoned long-polls; 5,000 waiting at SIGTERM, with the exit
// held to its bound of 1 s (measured from the signal to the exit the parent sees).
defineCleanupSuite({ label: 'stress', aborted: 10_000, atShutdown: 5_000, assertExitWithinMs: 1_000 });
