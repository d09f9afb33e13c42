// Images pasted or dropped anywhere on the page reach the page's handler; text pastes, events a dialog
// already handled, and a disabled hook leave them alone.
import { createEvent, fireEvent, render } from '@testing-library/react';

import { useImageDrop } from './use-image-drop.ts';

function Page({ enabled, onImage }: { enabled: boolean; onImage: (image: Blob) => void }) {
  const dragging = useImageDrop(enabled, onImage);
  return <p data-testid="hint">{dragging ? 'drop here' : ''}</p>;
}

const image = new File(['png'], 'code.png', { type: 'image/png' });
const imageTransfer = {
  types: ['Files'],
  items: [{ kind: 'file', type: 'image/png', getAsFile: () => image }],
  files: [image],
};

test('an image pasted on the page is handed over', () => {
  const onImage = jest.fn();
  render(<Page enabled={true} onImage={onImage} />);
  fireEvent.paste(document.body, { clipboardData: { ...imageTransfer, getData: () => '' } });
  expect(onImage).toHaveBeenCalledWith(image);
});

test('a text paste, or a paste a dialog already handled, is left alone', () => {
  const onImage = jest.fn();
  render(<Page enabled={true} onImage={onImage} />);
  fireEvent.paste(document.body, {
    clipboardData: { types: ['text/plain'], items: [], files: [], getData: () => 'hello' },
  });
  const handled = createEvent.paste(document.body, { clipboardData: { ...imageTransfer, getData: () => '' } });
  handled.preventDefault();
  fireEvent(document.body, handled);
  expect(onImage).not.toHaveBeenCalled();
});

test('a drop is handed over and the drag shows a hint meanwhile', () => {
  const onImage = jest.fn();
  const { getByTestId } = render(<Page enabled={true} onImage={onImage} />);
  fireEvent.dragEnter(document.body, { dataTransfer: imageTransfer });
  expect(getByTestId('hint')).toHaveTextContent('drop here');
  const over = createEvent.dragOver(document.body, { dataTransfer: imageTransfer });
  fireEvent(document.body, over);
  expect(over.defaultPrevented).toBe(true);
  fireEvent.drop(document.body, { dataTransfer: imageTransfer });
  expect(onImage).toHaveBeenCalledWith(image);
  expect(getByTestId('hint')).toHaveTextContent('');
});

test('disabled, it does nothing', () => {
  const onImage = jest.fn();
  render(<Page enabled={false} onImage={onImage} />);
  fireEvent.paste(document.body, { clipboardData: { ...imageTransfer, getData: () => '' } });
  fireEvent.drop(document.body, { dataTransfer: imageTransfer });
  expect(onImage).not.toHaveBeenCalled();
});
