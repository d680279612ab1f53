// `npm run test:quick` only: a short model run of the trigger (npm test runs 1,500 per scheduler).
process.env.MODEL_RUNS = process.env.MODEL_RUNS ?? '80';
