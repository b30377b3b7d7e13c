/** Where a deletion goes: both places now when online; here now and the service later when offline. */
export const deletedWhere = (online: boolean) => (online ? 'deleted here and on the service' : 'deleted here at once, and on the service when it is reached again');
