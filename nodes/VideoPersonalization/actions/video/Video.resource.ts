import { defineResource } from '../types';
import * as create from './create.operation';
import * as getAll from './getAll.operation';

export const video = defineResource({
	name: 'Video',
	description: 'Personalized videos',
	defaultOperation: 'getAll',
	operations: { getAll, create },
});
