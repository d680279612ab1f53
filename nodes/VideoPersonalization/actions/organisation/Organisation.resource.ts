import { defineResource } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const organisation = defineResource({
	name: 'Organisation',
	description: 'Organisations, with their brands and credits',
	defaultOperation: 'get',
	operations: { get, getAll },
});
