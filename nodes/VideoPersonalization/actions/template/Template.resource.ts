import { defineResource } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const template = defineResource({
	name: 'Template',
	description: 'Video templates to make videos from',
	defaultOperation: 'get',
	operations: { get, getAll },
});
