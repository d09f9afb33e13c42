import { nestedFolderCount, uploadGroups } from './upload-groups.ts';

const picked = (relativePath: string) => ({
  input: new File(['x'], relativePath.split('/').pop() ?? ''),
  relativePath,
});
const names = (groups: ReturnType<typeof uploadGroups>) =>
  groups.map((group) => [group.albumName, group.inputs.map((input) => (input as File).name)]);

describe('uploadGroups', () => {
  const tree = [
    picked('Trip/Day 1/a.jpg'),
    picked('b.png'),
    picked('Trip/c.jpg'),
    picked('Home/d.heic'),
    picked('Trip/Day 2/Evening/e.jpg'),
  ];

  it('for the whole tree: one group per top folder, nested folders included, and one of the loose files first', () => {
    expect(names(uploadGroups(tree))).toEqual([
      [undefined, ['b.png']],
      ['Trip', ['a.jpg', 'c.jpg', 'e.jpg']],
      ['Home', ['d.heic']],
    ]);
  });

  it('per folder: each file goes to the album of the folder it sits in', () => {
    expect(names(uploadGroups(tree, 'perFolder'))).toEqual([
      [undefined, ['b.png']],
      ['Day 1', ['a.jpg']],
      ['Trip', ['c.jpg']],
      ['Home', ['d.heic']],
      ['Evening', ['e.jpg']],
    ]);
  });

  it('keeps a live photo as one item of its image’s folder', () => {
    const live = { image: new File(['i'], 'IMG_1.HEIC'), video: new File(['v'], 'IMG_1.MOV') };
    const groups = uploadGroups([{ input: live, relativePath: 'Trip/IMG_1.HEIC' }]);
    expect(groups).toEqual([{ albumName: 'Trip', inputs: [live] }]);
  });

  it('has no group for no files, and reads a leading slash as no folder', () => {
    expect(uploadGroups([])).toEqual([]);
    expect(uploadGroups([picked('/e.jpg')]).map((group) => group.albumName)).toEqual([undefined]);
  });
});

describe('nestedFolderCount', () => {
  it('counts the folders below the top folders, once each', () => {
    expect(nestedFolderCount([picked('a.jpg'), picked('Trip/b.jpg'), picked('Home/c.jpg')])).toBe(0);
    expect(
      nestedFolderCount([picked('Trip/Day 1/a.jpg'), picked('Trip/Day 1/b.jpg'), picked('Trip/Day 2/Evening/c.jpg')]),
    ).toBe(3);
  });
});
