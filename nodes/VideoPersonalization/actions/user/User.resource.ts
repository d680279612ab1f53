import { defineResource } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const user = defineResource({
	name: 'User',
	description: 'Users of the service',
	defaultOperation: 'get',
	operations: { get, getAll },
});
